/** README.txt of the export: what each part of the ZIP is, in plain words. */
export function exportReadme(brand: string, filesLimitBytes: number): string {
  const mb = Math.round(filesLimitBytes / (1024 * 1024));
  return [
    `Your data at ${brand}`,
    '',
    'This archive holds everything we keep about your account, as of the time in data.json ("exportedAt").',
    '',
    'data.json',
    '  profile          your name, e-mail, phone and address, and where your first visit came from',
    '  billingDetails   the billing name, address and tax id printed on your invoices, if you gave them',
    '  sessions         where you are or were signed in: device, browser, city, when; no passwords or tokens exist',
    '  passkeys         the names and dates of your passkeys (the keys themselves never leave your device)',
    '  orders           each order with its stages, installments and payments, brief, accepted terms,',
    '                   messages, review rounds and comments, support requests and maintenance plan',
    '  invoices         the invoices and credit notes issued to you, with the buyer details printed on them',
    '  couponsUsed      discount codes you used',
    '  referral         your referral code, the orders placed with it (dates and states only) and your cashback',
    '  chats            live chats you had with us, signed in or under your e-mail',
    '  leads            requests for a call or an offer left under your e-mail',
    '  contactMessages  messages sent through the contact form with your e-mail',
    '  invoiceFiles     which PDF in invoices/ is which invoice',
    `  orderFiles       which order files are in files/, and which were left out (over ${mb} MB in one export,`,
    '                   or no longer readable): ask us for those',
    '',
    'invoices/          the PDF of each invoice and credit note',
    'files/<order>/     the files of each order: yours and the ones we delivered',
    '',
    'Amounts are in the smallest unit of their currency (paise for INR, cents for USD). Times are UTC (ISO 8601).',
    'To correct your details, use Edit under Personal Details in your dashboard. To delete your account, use',
    '"Delete my account" there; invoices and payment records stay as tax law requires.',
    '',
  ].join('\n');
}
