import { VisionError } from './errors'
import { greyPixels } from './image'
import type { VisionImage } from './types'

function bitsToHex(bits: boolean[]): string {
  let hex = ''
  for (let i = 0; i < bits.length; i += 4) {
    let nibble = 0
    for (let j = 0; j < 4; j++) nibble = (nibble << 1) | (bits[i + j] ? 1 : 0)
    hex += nibble.toString(16)
  }
  return hex
}

/** Average hash (imagehash.average_hash): 8×8 greyscale, bit = pixel > mean. 64 bits as 16 hex chars. */
export async function averageHash(image: VisionImage): Promise<string> {
  const px = await greyPixels(image, 8, 8)
  let sum = 0
  for (const v of px) sum += v
  const mean = sum / px.length
  return bitsToHex([...px].map((v) => v > mean))
}

/** Difference hash (imagehash.dhash): 9×8 greyscale, bit = right neighbour brighter. 16 hex chars. */
export async function differenceHash(image: VisionImage): Promise<string> {
  const px = await greyPixels(image, 9, 8)
  const bits: boolean[] = []
  for (let row = 0; row < 8; row++)
    for (let col = 0; col < 8; col++) bits.push(px[row * 9 + col + 1]! > px[row * 9 + col]!)
  return bitsToHex(bits)
}

/** Number of differing bits between two hex hashes of the same length. */
export function hammingDistance(a: string, b: string): number {
  if (a.length !== b.length || !/^[0-9a-f]*$/i.test(a) || !/^[0-9a-f]*$/i.test(b))
    throw new VisionError(
      'VISION_BAD_REQUEST',
      `Cannot compare hashes "${a}" and "${b}": expected two hex strings of the same length.`,
      {
        hint: 'Compare hashes made by the same function (averageHash with averageHash).',
      },
    )
  let distance = 0
  for (let i = 0; i < a.length; i++) {
    let x = Number.parseInt(a[i]!, 16) ^ Number.parseInt(b[i]!, 16)
    while (x) {
      distance += x & 1
      x >>= 1
    }
  }
  return distance
}
