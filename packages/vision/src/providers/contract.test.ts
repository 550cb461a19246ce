import { describeVisionProvider } from '../testing/describe-vision-provider'
import { fakeProvider } from './fake'
import { noneProvider } from './none'

describeVisionProvider('fake', () => fakeProvider())
describeVisionProvider('none', () => noneProvider(), { supports: ['screen', 'element'] })
