import { SocialDemo } from '../features/auth/social-demo.tsx';

// Spec §3 "Social profiles": Google gives email and name.
export default function GoogleLoginPage() {
  return (
    <SocialDemo
      provider="google"
      fields={(p) => [
        ['Name', p.displayName],
        ['Email', p.mail],
      ]}
    />
  );
}
