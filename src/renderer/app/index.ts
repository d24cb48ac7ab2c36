export { App } from './App.tsx';
// After the features' own styles, as before: the theme's rules win ties.
import './theme.css';
