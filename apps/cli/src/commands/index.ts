import type { CommandClass } from 'clipanion'
import { AcceptCommand } from './accept'
import { DemoCommand } from './demo'
import { DoctorCommand } from './doctor'
import { EnrichCommand } from './enrich'
import { ExportDevtoolsCommand } from './export-devtools'
import { ExportPlaywrightCommand } from './export-playwright'
import { ImportDevtoolsCommand } from './import-devtools'
import { InitCommand } from './init'
import { McpCommand } from './mcp'
import { RecordDesktopCommand } from './record-desktop'
import { RecordWebCommand } from './record-web'
import { ReplayCommand } from './replay'
import { ReportCommand } from './report'
import { ReportMergeCommand } from './report-merge'
import { ServeCommand } from './serve'
import { ValidateCommand } from './validate'
import { VerifyCommand } from './verify'
import { WorkerCommand } from './worker'

/** Every `qa` subcommand. Register new commands here. */
export const commands: CommandClass[] = [
  InitCommand,
  DemoCommand,
  DoctorCommand,
  ValidateCommand,
  VerifyCommand,
  ReportCommand,
  ReportMergeCommand,
  RecordWebCommand,
  RecordDesktopCommand,
  EnrichCommand,
  ReplayCommand,
  AcceptCommand,
  ImportDevtoolsCommand,
  ExportDevtoolsCommand,
  ExportPlaywrightCommand,
  ServeCommand,
  McpCommand,
  WorkerCommand,
]
