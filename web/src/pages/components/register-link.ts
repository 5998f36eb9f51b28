// The registration wizard (a later issue) will live at /register.
// TODO(platform): replace with paths.register.getHref() once the registry lists it.
export const registerHref = '/register';
