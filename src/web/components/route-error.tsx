import { Link, isRouteErrorResponse, useRouteError } from 'react-router';

/** The router's error screen (spec §8: 'Unexpected Application Error!'). */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : undefined;
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-3xl font-bold text-white">Unexpected Application Error!</h1>
      {detail && <p className="text-muted">{detail}</p>}
      <p className="text-muted">Something went wrong while showing this page. Please try again.</p>
      <Link to="/" className="rounded-lg bg-accent-strong px-4 py-2 font-semibold text-white">
        Go to Home
      </Link>
    </main>
  );
}
