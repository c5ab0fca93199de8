/** About this many steps up the scale, whatever the highest bar. */
const TICKS = 4;

/** A round step (1, 2 or 5 times a power of ten) that covers the highest bar in about TICKS steps. */
export function niceStep(highest: number): number {
  if (highest <= 0) return 1;
  const rough = highest / TICKS;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough)!;
  return Math.max(1, step);
}
