import { downscale } from '../image'
import { VisionError } from '../errors'
import type { ImagePart, VisionQuestion, VisionTask } from '../types'

/** Downscales every image for an LLM and appends their sizes to the prompt, so coordinates can be mapped back. */
export async function prepareForLlm(
  question: VisionQuestion,
  maxImageSide: number,
): Promise<{ images: ImagePart[]; scales: { x: number; y: number }[]; prompt: string }> {
  const done = await Promise.all(question.images.map((img) => downscale(img, maxImageSide)))
  const sizes = done.map((d, i) => `Image ${i + 1} is ${d.part.width}×${d.part.height} pixels.`).join(' ')
  const notes: string[] = [sizes]
  if (question.point && done[0] && (done[0].scale.x !== 1 || done[0].scale.y !== 1)) {
    // The point was given in original pixels of image 1; restate it in the pixels the model sees.
    const p = { x: Math.round(question.point.x / done[0].scale.x), y: Math.round(question.point.y / done[0].scale.y) }
    notes.push(`In those pixels the clicked point is (${p.x}, ${p.y}).`)
  }
  return {
    images: done.map((d) => d.part),
    scales: done.map((d) => d.scale),
    prompt: `${question.prompt}\n${notes.join(' ')}`,
  }
}

export function assertNotAborted(provider: string, signal?: AbortSignal): void {
  if (signal?.aborted)
    throw new VisionError('VISION_ABORTED', 'The vision call was cancelled by the caller.', {
      hint: 'Nothing to fix: the run was stopped.',
      provider,
    })
}

export function unsupported(provider: string, task: VisionTask): VisionError {
  return new VisionError('VISION_UNSUPPORTED', `The "${provider}" vision provider cannot answer "${task}" questions.`, {
    hint: 'Configure an LLM provider (QA_VISION=bedrock or openai) for this; the caller falls back without it.',
    provider,
    retryable: false,
  })
}

/** Maps an HTTP status (and service error name) to a VisionError code. */
export function errorFromStatus(
  provider: string,
  status: number | undefined,
  errorType: string | undefined,
  detail: string,
  cause?: unknown,
): VisionError {
  const type = (errorType ?? '').split(':')[0] ?? ''
  const what = `${type || `HTTP ${status ?? '?'}`}${detail ? `: ${detail}` : ''}`
  if (status === 429 || /Throttl|TooManyRequests|RateLimit/i.test(type))
    return new VisionError(
      'VISION_RATE_LIMITED',
      `The "${provider}" vision provider is throttling requests (${what}).`,
      {
        hint: 'Retried with backoff; lower concurrency or ask for a higher quota.',
        provider,
        ...(status ? { status } : {}),
        cause,
      },
    )
  if (
    status === 401 ||
    status === 403 ||
    /AccessDenied|Unrecognized|ExpiredToken|InvalidSignature|Credentials|Unauthori[sz]ed|Forbidden/i.test(type)
  )
    return new VisionError('VISION_AUTH', `The "${provider}" vision provider refused the credentials (${what}).`, {
      hint:
        provider === 'bedrock'
          ? 'Check AWS credentials (AWS_PROFILE or keys), the region, and that the model is enabled in Bedrock.'
          : 'Check QA_OPENAI_API_KEY.',
      provider,
      ...(status ? { status } : {}),
      cause,
    })
  if (
    status === 408 ||
    (status !== undefined && status >= 500) ||
    /InternalServer|ServiceUnavailable|ModelNotReady|ModelTimeout/i.test(type)
  )
    return new VisionError('VISION_UNAVAILABLE', `The "${provider}" vision provider failed on its side (${what}).`, {
      hint: 'Retried with backoff; if it persists, check the service status or the endpoint.',
      provider,
      ...(status ? { status } : {}),
      cause,
      retryable: true,
    })
  if (status !== undefined && status >= 400)
    return new VisionError('VISION_BAD_REQUEST', `The "${provider}" vision provider rejected the request (${what}).`, {
      hint: 'Check the model id and that it accepts images; this is not retried.',
      provider,
      status,
      cause,
    })
  return new VisionError('VISION_UNAVAILABLE', `The "${provider}" vision provider could not be reached (${what}).`, {
    hint: 'Check the endpoint URL and network; retried with backoff.',
    provider,
    cause,
    retryable: true,
  })
}
