// Copy of the sign-in screens: the callback, Verify Your Email, and the registration-complete page.
export const signInCopy = {
  callback: {
    title: 'Signing in',
    completing: 'Completing authentication...',
    joinFailed:
      'We could not add you to your organization yet. Please sign in again from the invitation email.',
  },
  verifyEmail: {
    title: 'Verify Your Email',
    intro: 'We sent a verification link to',
    instructions:
      'Open the link in that email to confirm your address, then come back here. The link also lets us know the address belongs to you before we verify your identity.',
    checked: "I've Verified My Email",
    checking: 'Checking...',
    resend: 'Resend Verification Email',
    resending: 'Sending...',
    logOut: 'Log Out and Try Different Email',
    verified: 'Email Verified!',
    verifiedBody: 'Thank you. Next, give your consent for identity verification.',
    notYet: 'Not Verified Yet',
    notYetBody: 'Your email address is not verified yet. Open the link in the email we sent, then try again.',
    sent: 'Verification Email Sent',
    sentBody: 'Check your inbox and your spam folder for the verification link.',
    sendFailed: 'Failed to Send Email',
    sendFailedBody: 'There was an error sending the verification email. Please try again later.',
    rateLimited: 'Please Wait',
    rateLimitedBody: (seconds: number) =>
      `A verification email was sent a moment ago. You can send another in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    checkFailed: 'Check Failed',
    checkFailedBody: 'We could not check your email status. Please try again.',
    userMissing: 'User information not available. Please try logging in again.',
  },
  registrationSuccess: {
    title: 'Registration Successful',
    body: 'Your organization is registered and your password is set. Your dashboard shows what comes next: the identity verification, about five minutes with a government-issued photo ID and a selfie.',
    dashboard: 'Go to Dashboard',
    home: 'Back to Home',
  },
} as const;
