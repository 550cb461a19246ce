/** RGBA pixels, row-major, 4 bytes each (a DecodedScreenshot fits). */
export interface RgbaImage {
  width: number
  height: number
  data: Uint8Array
}
