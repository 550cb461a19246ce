import type { ElementIdentity } from '@qa/model'
import type { CandidateElement } from '../score-candidate'

/** A recorded login form (the page as it was when the test was recorded). */
export const signIn: CandidateElement<string> = {
  handle: 'sign-in',
  axRole: 'button',
  axName: 'Sign in',
  tagName: 'button',
  type: 'submit',
  id: 'login-btn',
  classNames: ['btn', 'btn-primary'],
  textContent: 'Sign in',
  xpath: '/html/body/main/form/div[3]/button[1]',
  boundingBox: { x: 600, y: 400, width: 120, height: 40 },
  neighborText: ['Forgot password?', 'Email', 'Password'],
}
export const cancel: CandidateElement<string> = {
  handle: 'cancel',
  axRole: 'button',
  axName: 'Cancel',
  tagName: 'button',
  type: 'button',
  id: 'cancel-btn',
  classNames: ['btn'],
  textContent: 'Cancel',
  xpath: '/html/body/main/form/div[3]/button[2]',
  boundingBox: { x: 740, y: 400, width: 100, height: 40 },
  neighborText: ['Forgot password?', 'Email', 'Password'],
}
export const email: CandidateElement<string> = {
  handle: 'email',
  axRole: 'textbox',
  axName: 'Email',
  tagName: 'input',
  type: 'email',
  name: 'email',
  id: 'email',
  placeholder: 'you@example.com',
  classNames: ['field'],
  xpath: '/html/body/main/form/div[1]/input',
  boundingBox: { x: 600, y: 250, width: 300, height: 36 },
  neighborText: ['Email', 'Password'],
}
export const password: CandidateElement<string> = {
  handle: 'password',
  axRole: 'textbox',
  axName: 'Password',
  tagName: 'input',
  type: 'password',
  name: 'password',
  id: 'password',
  classNames: ['field'],
  xpath: '/html/body/main/form/div[2]/input',
  boundingBox: { x: 600, y: 320, width: 300, height: 36 },
  neighborText: ['Email', 'Password', 'Forgot password?'],
}
export const forgot: CandidateElement<string> = {
  handle: 'forgot',
  axRole: 'link',
  axName: 'Forgot password?',
  tagName: 'a',
  href: '/reset',
  classNames: ['link'],
  textContent: 'Forgot password?',
  xpath: '/html/body/main/form/a',
  boundingBox: { x: 600, y: 460, width: 140, height: 20 },
  neighborText: ['Sign in', 'Cancel'],
}

export const recordedPage = [email, password, signIn, cancel, forgot]

/** The identity a recorder stores for a clicked element (its candidate view plus the required fields). */
export function identityOf(e: CandidateElement<string>, extra: Partial<ElementIdentity> = {}): ElementIdentity {
  const { handle: _h, visible: _v, enabled: _e, classNames, iconClasses, neighborText, ...rest } = e
  return {
    ...rest,
    tagName: e.tagName ?? 'div',
    boundingBox: e.boundingBox ?? { x: 0, y: 0, width: 0, height: 0 },
    classNames: classNames ? [...classNames] : null,
    iconClasses: iconClasses ? [...iconClasses] : null,
    neighborText: neighborText ? [...neighborText] : null,
    ...extra,
  }
}
