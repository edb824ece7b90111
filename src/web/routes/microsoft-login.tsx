import { SocialDemo } from '../features/auth/social-demo.tsx';

// Spec §2 "Demo Microsoft sign-in page": first name, last name, principal-name e-mail and id.
export default function MicrosoftLoginPage() {
  return (
    <SocialDemo
      provider="microsoft"
      fields={(p) => [
        ['First Name', p.givenName],
        ['Last Name', p.surname],
        ['Email', p.userPrincipalName],
        ['Id', p.id],
      ]}
    />
  );
}
