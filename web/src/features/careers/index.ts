// The careers feature's public face: what the careers page shows.
export { GeneralApplicationLink, RoleCard } from './components/role-card.tsx';
