import { change, type Change } from '../../src/contract/change';
import { checkVersion } from '../../src/contract/version-check';

const breaking = change('whoami', 'output', '/properties/account', 'output-property-removed', 'removed');
const addition = change('whoami', 'output', '/properties/region', 'output-property-added', 'added (optional)');
const dangerous = change('whoami', 'tool', '/description', 'tool-description-changed', 'description changed');
const harmless = change('whoami', 'output', '', 'title-changed', 'title "A" → "B"');
const check = (was: string, now: string, changes: Change[]) => checkVersion(was, now, changes, 'libs/toolsets/x/package.json');

describe('the version a change needs', () => {
  it('a breaking change needs a major bump from 1.0.0 on', () => {
    expect(check('1.4.2', '1.5.0', [breaking, addition])).toMatchObject({ ok: false, needed: 'major', next: '2.0.0' });
    expect(check('1.4.2', '1.5.0', [breaking]).message).toBe(
      'version 1.5.0 does not cover these changes: they need a major bump over 1.4.2. Set "version": "2.0.0" in libs/toolsets/x/package.json.',
    );
    expect(check('1.4.2', '2.0.0', [breaking])).toMatchObject({ ok: true });
    expect(check('1.4.2', '2.0.0-rc.1', [breaking])).toMatchObject({ ok: true });
  });

  it('a breaking change needs a minor bump while the version is 0.x', () => {
    expect(check('0.1.0', '0.1.1', [breaking])).toMatchObject({ ok: false, needed: 'minor', next: '0.2.0' });
    expect(check('0.1.0', '0.2.0', [breaking])).toMatchObject({ ok: true });
  });

  it('an addition or a dangerous change needs a minor bump (a patch while 0.x)', () => {
    expect(check('1.4.2', '1.4.3', [addition])).toMatchObject({ ok: false, needed: 'minor', next: '1.5.0' });
    expect(check('1.4.2', '1.5.0', [dangerous])).toMatchObject({ ok: true });
    expect(check('0.1.0', '0.1.0', [addition])).toMatchObject({ ok: false, needed: 'patch', next: '0.1.1' });
    expect(check('0.1.0', '0.1.1', [addition])).toMatchObject({ ok: true });
  });

  it('any other change needs a patch bump, so an unchanged version means an unchanged contract', () => {
    expect(check('1.4.2', '1.4.2', [harmless])).toMatchObject({ ok: false, needed: 'patch', next: '1.4.3' });
    expect(check('1.4.2', '1.4.3', [harmless])).toMatchObject({ ok: true });
  });

  it('no change needs no bump; a version that went back is refused', () => {
    expect(check('1.4.2', '1.4.2', [])).toMatchObject({ ok: true });
    expect(check('1.4.2', '1.3.0', []).message).toContain("1.3.0, older than the snapshot's 1.4.2");
  });

  it('refuses a version that is not semver, saying where to fix it', () => {
    expect(check('1.0.0', 'latest', []).message).toBe('"version": "latest" in libs/toolsets/x/package.json is not a semantic version (x.y.z); set one.');
  });
});
