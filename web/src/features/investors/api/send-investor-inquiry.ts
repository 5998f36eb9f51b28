import { type SuccessResponse, successResponse } from '#contracts/common.ts';
import type { InvestorInquiryRequest } from '#contracts/investor-inquiry.ts';
import { api } from '#web/lib/api-client.ts';

export function sendInvestorInquiry(request: InvestorInquiryRequest): Promise<SuccessResponse> {
  return api.post('/api/investor-inquiries', request, successResponse);
}
