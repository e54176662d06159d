// A short tone when it becomes the player's turn (M turns it off; kept in the browser).
import { session } from "./session";

let context: AudioContext | null = null;

export function beep(): void {
  if (!session.sound() || typeof globalThis.AudioContext === "undefined") return;
  try {
    context ??= new AudioContext();
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.frequency.value = 660;
    gain.gain.value = 0.05;
    osc.connect(gain).connect(context.destination);
    osc.start();
    osc.stop(context.currentTime + 0.12);
  } catch {
    // no sound where the browser refuses it
  }
}
