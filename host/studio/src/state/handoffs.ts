import { useEffect, useRef, useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';

/** How often the console looks for conversations handed to a person (a cheap count: one row asked for). */
const LOOK_EVERY_MS = 20_000;
const SOUND_SETTING = 'cerebro.studio.aviso_sonoro';

/** Whether this browser plays a sound when a conversation is handed off (a choice of this browser, not the owner's). */
export function handoffSoundOn(): boolean {
  try {
    return localStorage.getItem(SOUND_SETTING) === '1';
  } catch {
    return false;
  }
}

export function setHandoffSound(on: boolean): void {
  try {
    if (on) localStorage.setItem(SOUND_SETTING, '1');
    else localStorage.removeItem(SOUND_SETTING);
  } catch {
    /* storage refused (private mode): the choice lasts this page only */
  }
}

/** Two short tones, made in the browser (nothing is downloaded); silent where audio is not allowed yet. */
function chime(): void {
  try {
    const audio = new AudioContext();
    for (const [i, hz] of [880, 1320].entries()) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = hz;
      gain.gain.setValueAtTime(0.15, audio.currentTime + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + i * 0.18 + 0.16);
      tone.connect(gain).connect(audio.destination);
      tone.start(audio.currentTime + i * 0.18);
      tone.stop(audio.currentTime + i * 0.18 + 0.17);
    }
    setTimeout(() => void audio.close(), 600);
  } catch {
    /* no audio here */
  }
}

export interface Handoffs {
  /** Conversations of the space waiting for a person; null until known (or without the ventas module). */
  waiting: number | null;
  /** What screen readers are told when the number grows. */
  announcement: string;
}

/**
 * Conversations of the space handed off to a person (module ventas), looked up now, every 20 s and when the tab is
 * shown again, for the badge in the navigation. When the number grows, screen readers are told and, if this browser asked for it, a sound plays.
 * The webhook `ventas.conversacion_derivada` tells systems outside Studio.
 */
export function useHandoffs(space: string | null, hasSales: boolean): Handoffs {
  const [waiting, setWaiting] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const previous = useRef<number | null>(null);

  useEffect(() => {
    previous.current = null;
    setWaiting(null);
    setAnnouncement('');
    if (!space || !hasSales) return;
    let stopped = false;
    const look = async () => {
      try {
        const { total } = await api<{ total: number }>('GET', `/mod/ventas/${seg(space)}/conversaciones`, {
          query: { estado: 'derivada', limite: 1 },
        });
        if (stopped) return;
        const before = previous.current;
        previous.current = total;
        setWaiting(total);
        if (before !== null && total > before) {
          const more = total - before;
          setAnnouncement(
            more === 1
              ? 'Una conversación nueva espera a una persona.'
              : `${more} conversaciones nuevas esperan a una persona.`,
          );
          if (handoffSoundOn()) chime();
        }
      } catch {
        /* the next look retries; a lost session is handled by the page */
      }
    };
    void look();
    const timer = setInterval(() => void look(), LOOK_EVERY_MS);
    // Back on the tab after a while: look at once rather than at the next tick.
    const onVisible = () => {
      if (document.visibilityState === 'visible') void look();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [space, hasSales]);

  return { waiting, announcement };
}
