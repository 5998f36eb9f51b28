import { investorInquiryRequest } from '#contracts/investor-inquiry.ts';
import { MessageForm } from '#web/components/message-form.tsx';
import { investors } from '#web/content/pages/investors.ts';
import { sendInvestorInquiry } from '#web/features/investors/api/send-investor-inquiry.ts';

/** The investors page's inquiry: the organization and the message may be left empty. */
export function InvestorInquiryForm() {
  return (
    <MessageForm
      copy={investors.form}
      schema={investorInquiryRequest}
      submit={sendInvestorInquiry}
      requireAll={false}
    />
  );
}
