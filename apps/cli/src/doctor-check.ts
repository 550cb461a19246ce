/** One line of `qa doctor`: a part of the machine or an optional part of qa, and whether it is ready. */
export interface DoctorCheck {
  name: string
  status: 'ok' | 'warn' | 'fail'
  /** Needed for the work asked (`qa doctor` exits 2 when a required check fails). */
  required: boolean
  detail: string
  /** What to do, when not ok. */
  fix?: string
}
