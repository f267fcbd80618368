import { describe, expect, it } from 'vitest';
import { UpstreamError, Upstreams } from '../../src/http/upstreams.js';

describe('Upstreams', () => {
  const upstreams = new Upstreams({
    'https://api.example.com': 'http://127.0.0.1:8080/stage/',
    '*': 'http://127.0.0.1:9090',
  });

  it.each([
    ['https://api.example.com/v1/x?a=1&b=%20', 'http://127.0.0.1:8080/stage/v1/x?a=1&b=%20'],
    ['https://other.example.org/p', 'http://127.0.0.1:9090/p'],
  ])('%s goes to %s', (url, target) => {
    expect(upstreams.route(new URL(url)).href).toBe(target);
  });

  it('sends everything to its own origin without overrides', () => {
    expect(new Upstreams().route(new URL('https://api.example.com/x')).href).toBe('https://api.example.com/x');
  });

  it('routes a request only from the origin it maps to its own base: the base’s address alone is not routed', () => {
    const one = new Upstreams({ 'https://api.example.com': 'https://127.0.0.1:8443/stage' });
    expect(one.routes('https://api.example.com', 'https://127.0.0.1:8443')).toBe(true);
    expect(one.routes('https://127.0.0.1:8443', 'https://127.0.0.1:8443')).toBe(false);
    expect(one.routes('https://other.example.com', 'https://127.0.0.1:8443')).toBe(false);
    expect(one.routes('https://api.example.com', 'https://127.0.0.1:9443')).toBe(false);
    expect(upstreams.routes('https://anything.example.org', 'http://127.0.0.1:9090')).toBe(true);
    expect(new Upstreams().routes('https://127.0.0.1:8443', 'https://127.0.0.1:8443')).toBe(false);
  });

  it('parses ORIGIN=BASEURL flags', () => {
    expect(Upstreams.parseFlags(['*=http://127.0.0.1:1', 'https://a.io=http://127.0.0.1:2'])).toEqual({
      '*': 'http://127.0.0.1:1',
      'https://a.io': 'http://127.0.0.1:2',
    });
  });

  it.each([
    [() => Upstreams.parseFlags(['no-equals-sign']), 'expected ORIGIN=BASEURL'],
    [
      () => new Upstreams({ 'https://a.io/path': 'http://127.0.0.1' }),
      "upstream origin 'https://a.io/path' must be scheme://host[:port] or *",
    ],
    [() => new Upstreams({ '*': 'ftp://x' }), "upstream base 'ftp://x' must be an http(s) URL"],
  ])('rejects bad overrides with a clear message', (make, message) => {
    expect(make).toThrow(UpstreamError);
    expect(make).toThrow(message);
  });
});
