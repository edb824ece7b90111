import { MAINTENANCE_COVERAGE } from '../../../domain/maintenance-plan.ts';

// Spec §2 FAQ: six entries covering the promises of spec §1. Also used for the FAQPage JSON-LD.
export const FAQS: readonly { q: string; a: string }[] = [
  {
    q: 'What does your service include?',
    a: 'We design, develop and deploy new websites: up to 50 screens and 30 APIs, high-quality UI/UX, responsive design, performance, speed and security, with deployment included. We build new websites only; we do not update or redesign existing sites.',
  },
  {
    q: 'How long does it take to get my website?',
    a: 'About 30 days. Your website is delivered within 4 weeks after you approve the final UI design.',
  },
  {
    q: 'How do payments work?',
    a: 'You pay 20% in advance when you order, and design starts right after it. The remaining 80% is paid at the end, and we give you your website link after the final payment.',
  },
  {
    q: 'Can I follow the progress of my website?',
    a: 'Yes. Your dashboard shows every stage of the work, from the UI discussion to deployment and delivery, with the date each step was completed.',
  },
  {
    q: 'Will my website be search-engine friendly?',
    a: 'Yes, we apply search-engine-friendly practices to every website. Advanced SEO, such as keyword research and content campaigns, is available as a separate service.',
  },
  {
    q: 'Do you use no-code tools, and what happens after launch?',
    a:
      'No. Everything is written in custom code by our developers. After launch you get one year of customer support included. ' +
      `After that, a monthly maintenance plan keeps it going for {maintenancePrice}: ${MAINTENANCE_COVERAGE}. Cancel at the end of any month.`,
  },
];

/**
 * An answer with the maintenance plan's configured price (MAINTENANCE_MONTHLY_PRICE, a text setting
 * of the site configuration, so a prerendered page follows it at serve time).
 */
export const faqAnswer = (a: string, site: { maintenancePrice: string }) => a.replaceAll('{maintenancePrice}', site.maintenancePrice);
