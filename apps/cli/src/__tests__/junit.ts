import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { validateXML } from 'xmllint-wasm'

/** The JUnit XSD Jenkins uses, as shipped by the npm package junit-processor (its header names the source). */
const JENKINS_XSD = readFileSync(
  createRequire(import.meta.url).resolve('junit-processor/schemas/jenkins-junit.xsd'),
  'utf8',
)

/** Validates JUnit XML against the Jenkins JUnit XSD with libxml2 (xmllint-wasm). */
export async function validateJunit(xml: string): Promise<{ valid: boolean; errors: string[] }> {
  const r = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [JENKINS_XSD] })
  return { valid: r.valid, errors: r.errors.map((e) => e.message) }
}
