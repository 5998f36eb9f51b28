// The registration wizard's saved progress lives under this local-storage key. The wizard writes
// and clears it; Log In and Log Out clear it too, so a finished or abandoned registration does not
// outlive the session on a shared computer.
export const registrationDataKey = 'registration_data';

export function clearRegistrationData(): void {
  try {
    localStorage.removeItem(registrationDataKey);
  } catch {
    // Storage disabled: there is nothing to clear.
  }
}
