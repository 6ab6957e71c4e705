import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';

/** Counts down and then navigates; answers the seconds left (for "Redirecting in N s…"). */
export function useRedirectAfter(active: boolean, seconds: number, to: string) {
  const navigate = useNavigate();
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    if (!active) return;
    const started = Date.now();
    const timer = setInterval(() => {
      const remaining = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(remaining);
      if (remaining === 0) {
        clearInterval(timer);
        void navigate({ to });
      }
    }, 250);
    return () => clearInterval(timer);
  }, [active, seconds, to, navigate]);
  return left;
}
