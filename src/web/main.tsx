import * as app from './app.tsx';
import { setAppLoader } from './islands/go-to-app.ts';
import './styles.css';

// Entry of the router app (index.html): every page that is not prerendered (docs/decisions/074).
setAppLoader(() => Promise.resolve(app));
void app.startApp();
