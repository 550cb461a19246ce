/** Minimal types of the s3rver dev server used by the e2e tests (the package ships none). */
declare module 's3rver' {
  export default class S3rver {
    constructor(opts: {
      port?: number
      address?: string
      silent?: boolean
      directory: string
      configureBuckets?: Array<{ name: string; configs: unknown[] }>
    })
    run(): Promise<{ address: string; port: number }>
    close(): Promise<void>
  }
}
