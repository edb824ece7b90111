// What a route of the table (routes.tsx) tells the layout around it. Apart from the table, which
// imports the layout: the layout reading it from there was an import circle.
export interface RouteHandle {
  /** Spec §2 "Bare": the shared header and footer are hidden. */
  bare: boolean;
}
