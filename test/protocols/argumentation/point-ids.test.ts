import { describe, expect, it } from 'vitest';
import { buildConsulteePrompt } from '../../../protocols/argumentation/index.js';
import { advance, agreeValue, judged, points, reply, start } from './helpers.js';

const ids = (text: string) => reply(start(), text).points.map((p) => p.id);

describe('point ids', () => {
  it("keep the consultee's own numbering", () => {
    expect(ids('1. Redis. INFERENCE\n2. Memcached. GUESS\n4. Valkey. GUESS')).toEqual(['P1.1', 'P1.2', 'P1.4']);
    expect(ids('3. Only the third. INFERENCE')).toEqual(['P1.3']);
  });

  it('give a number used twice one above every number in the reply, so no other point loses its own', () => {
    expect(ids('1. Redis. INFERENCE\n1. Memcached. GUESS')).toEqual(['P1.1', 'P1.2']);
    expect(ids('1. a. GUESS\n3. b. GUESS\n3. c. GUESS\n5. d. GUESS')).toEqual(['P1.1', 'P1.3', 'P1.6', 'P1.5']);
    expect(ids('1. a. GUESS\n3. b. GUESS\n3. c. GUESS\n4. d. GUESS')).toEqual(['P1.1', 'P1.3', 'P1.5', 'P1.4']);
  });

  it('are what the next prompt calls the points', () => {
    const s = judged(reply(start(), '1. Redis. INFERENCE\n4. Valkey is a fork. GUESS'), { ...points(['P1.1', agreeValue], ['P1.4', agreeValue]), ...advance });
    const prompt = buildConsulteePrompt(s, 'next');
    expect(prompt).toContain('P1.4: AGREE');
    expect(prompt).not.toContain('P1.2');
  });

  it('carry the iteration: the same numbers in the next reply are new ids', () => {
    const s = judged(reply(start(), '1. Redis. INFERENCE'), { ...points(['P1.1', agreeValue]), ...advance });
    expect(reply(s, '1. Extends P1.1: it persists. INFERENCE').points.map((p) => p.id)).toEqual(['P1.1', 'P2.1']);
  });

  it('link only to points that exist: an id the consultee coined for its own list stays in the text (the m8 trial)', () => {
    const s = judged(reply(start(), '1. Redis. INFERENCE'), { ...points(['P1.1', agreeValue]), ...advance });
    const r = reply(s, '1. Unlike P1.1, and as in my P1.7 above: it persists. INFERENCE\n2. Caveat on P2.1: not on a replica. GUESS');
    expect(r.points.filter((p) => p.iter === 2).map((p) => [p.id, p.refs])).toEqual([['P2.1', ['P1.1']], ['P2.2', ['P2.1']]]);
    expect(r.points.find((p) => p.id === 'P2.1')?.text).toContain('P1.7');
  });
});
