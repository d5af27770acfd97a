/** The candidate nearest `name` by edit distance, when it is near enough to be a rename. */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  if (!best) return undefined;
  const [a, b] = [name.toLowerCase(), best.candidate.toLowerCase()];
  // A rename that shortened or lengthened the name (getPetByIdentifier → getPetById) is near too.
  const extended = Math.min(a.length, b.length) >= 5 && (a.startsWith(b) || b.startsWith(a));
  if (best.distance <= Math.max(2, Math.floor(name.length / 3)) || extended) return best.candidate;
  // So is one that put a word before it (status → member_status): the candidate that ends with the name.
  return a.length >= 4 ? candidates.find((candidate) => /[^a-z0-9]/i.test(candidate.slice(0, -a.length).slice(-1)) && candidate.toLowerCase().endsWith(a)) : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
