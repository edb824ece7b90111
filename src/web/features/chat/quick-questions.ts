// Spec §2: three quick questions per tab (services offered, website cost, customisation).
export const QUICK_QUESTIONS = ['What services do you offer?', 'How much does a website cost?', 'Can I customise my website?'] as const;
