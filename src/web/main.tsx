import { startApp } from './app.tsx';
import './styles.css';

// Entry of the router app (index.html): every page that is not prerendered (docs/decisions/074).
void startApp();
