import { useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { saveBlob } from '../../lib/download-file.ts';
import { siteConfig } from '../../lib/site-config.ts';

/**
 * The ten one-time recovery codes of a back-office account, shown once: the
 * server keeps only their hashes, so Continue waits for "I have saved them".
 */
export function RecoveryCodes({
  codes,
  onContinue,
  continueLabel = 'Continue',
}: {
  codes: string[];
  onContinue(): void;
  continueLabel?: string;
}) {
  const [saved, setSaved] = useState(false);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const checkId = useId();
  const text = codes.join('\n');

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  function download() {
    const { brand } = siteConfig();
    const file = new Blob([`${brand} back office: recovery codes\nEach code works once, when your passkey is not at hand.\n\n${text}\n`], {
      type: 'text/plain',
    });
    saveBlob(file, `${brand.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-recovery-codes.txt`);
  }

  return (
    <div className="flex flex-col gap-4">
      <ol
        className="grid grid-cols-2 gap-2 rounded-xl border border-line bg-page/60 p-4 font-mono text-sm text-white sm:text-base"
        data-testid="recovery-codes"
        aria-label="Recovery codes"
      >
        {codes.map((c) => (
          <li key={c} className="text-center tracking-wider break-all">
            {c}
          </li>
        ))}
      </ol>
      <div className="grid grid-cols-2 gap-2">
        <Button variant="secondary" onClick={() => void copy()} className="min-h-11">
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </Button>
        <Button variant="secondary" onClick={download} className="min-h-11">
          Download
        </Button>
      </div>
      <p className="text-sm text-muted" aria-live="polite">
        {copied === 'failed'
          ? 'Copying was refused by the browser: download them or write them down.'
          : 'Keep them somewhere safe, apart from this device. They are shown only now.'}
      </p>
      <label htmlFor={checkId} className="flex min-h-11 cursor-pointer items-center gap-3 text-sm text-ink">
        <input
          id={checkId}
          type="checkbox"
          checked={saved}
          onChange={(e) => setSaved(e.target.checked)}
          className="h-5 w-5 accent-accent-strong"
        />
        I have saved them
      </label>
      <Button onClick={onContinue} disabled={!saved} className="min-h-11 w-full">
        {continueLabel}
      </Button>
    </div>
  );
}
