import type { CommandClass } from 'clipanion'
import { ValidateCommand } from './validate'

/** Every `qa` subcommand. Register new commands here. */
export const commands: CommandClass[] = [ValidateCommand]
