import { type SuccessResponse, successResponse } from '#contracts/common.ts';
import type { InvestorInquiryRequest } from '#contracts/investor-inquiry.ts';
import { api } from '#web/lib/public-api.ts';

export function sendInvestorInquiry(request: InvestorInquiryRequest): Promise<SuccessResponse> {
  return api.call('CreateInvestorInquiry', request, { response: successResponse });
}
