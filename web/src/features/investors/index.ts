// The investors feature's public face: the investors page's inquiry form.
export { InvestorInquiryForm } from './components/investor-inquiry-form.tsx';
