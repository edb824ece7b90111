import { inject } from 'vitest'; console.log(typeof inject);
