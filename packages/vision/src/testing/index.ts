export {
  startBedrockStub,
  STUB_AWS_CREDENTIALS,
  type BedrockStub,
  type ConverseStubRequest,
  type StubReply,
} from './bedrock-stub'
export { startOpenAiStub, type OpenAiStub, type ChatStubRequest } from './openai-stub'
export type { StubServer } from './http-stub'
export { describeVisionProvider, type ContractOptions } from './describe-vision-provider'
export { renderTextPng, renderBoxesPng, type TextLabel } from './render-text'
export { fakeProvider, type FakeProvider, type FakeProviderOptions } from '../providers/fake'
