// A short chime when the founder replies while the panel is closed. Browsers only
// allow audio after a user gesture, so the context is created when the visitor opens the chat.
let context: AudioContext | null = null;

export function primeSound() {
  try {
    context ??= new AudioContext();
    void context.resume();
  } catch {
    context = null;
  }
}

export function playChime() {
  if (!context) return;
  const now = context.currentTime;
  const osc = context.createOscillator();
  const gain = context.createGain();
  osc.type = 'sine';
  osc.frequency.setValueAtTime(880, now);
  osc.frequency.setValueAtTime(1320, now + 0.12);
  gain.gain.setValueAtTime(0.08, now);
  gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.35);
  osc.connect(gain).connect(context.destination);
  osc.start(now);
  osc.stop(now + 0.35);
}
