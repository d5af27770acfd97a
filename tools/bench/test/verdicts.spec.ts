import { judge } from '../src/harness/report';

describe('bench verdicts', () => {
  const fasterThanZod = (ratio: number) => ratio < 1;

  it('passes a target every round meets', () => {
    expect(judge(fasterThanZod, 0.74, [0.7, 0.74, 0.79])).toBe('pass');
  });

  it('misses a target no round meets', () => {
    expect(judge(fasterThanZod, 1.08, [1.03, 1.08, 1.12])).toBe('miss');
  });

  it('says "within noise" when the rounds straddle the target, whatever the median', () => {
    expect(judge(fasterThanZod, 0.99, [0.95, 0.99, 1.04])).toBe('within noise');
    expect(judge(fasterThanZod, 1.01, [0.97, 1.01, 1.06])).toBe('within noise');
  });

  it('judges a single measurement by itself', () => {
    expect(judge((ms) => ms < 500, 286)).toBe('pass');
    expect(judge((ms) => ms < 500, 753)).toBe('miss');
  });
});
