import type { ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import { buttonClass, type ButtonVariant } from './button.tsx';

// Apart from button.tsx so that the public pages' islands, which use buttons, never pull in React Router.
export function ButtonLink({ variant = 'primary', className = '', ...rest }: LinkProps & { variant?: ButtonVariant; children: ReactNode }) {
  return <Link className={buttonClass(variant, className)} {...rest} />;
}
