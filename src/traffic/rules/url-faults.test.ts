import { describe, expect, it } from 'vitest';
import { isPrivateLiteral, urlFault } from './url-faults.ts';

describe('url faults', () => {
  it('reads the static rules as the WHATWG parser reads the URL', () => {
    expect(urlFault('http://images.example/a.jpg')).toBe('https');
    expect(urlFault('https://images.example:8443/a.jpg')).toBe('port');
    expect(urlFault('https://images.example:443/a.jpg')).toBeUndefined();
    expect(urlFault('https://0x7f000001/a.jpg')).toBe('private');
    expect(urlFault('https://images.example/a.jpg')).toBeUndefined();
    expect(urlFault('not a url')).toBeUndefined();
  });

  it('the trusted fixture origin is exempt', () => {
    expect(urlFault('https://127.0.0.1:39425/f/p.jpg', ['https://127.0.0.1:39425'])).toBeUndefined();
  });

  it('private literals, embedded IPv4 included; public ones and names are not', () => {
    for (const host of ['10.1.2.3', '[::ffff:7f00:1]', '[64:ff9b::a00:1]', '[2002:c0a8:101::1]', '[fd00::1]'])
      expect(isPrivateLiteral(host), host).toBe(true);
    expect(isPrivateLiteral('[2001:0:4136:e378:8000:63bf:80ff:fffe]')).toBe(true);
    for (const host of ['8.8.8.8', '[2606:4700::1111]', '[::ffff:808:808]', 'localhost.example'])
      expect(isPrivateLiteral(host), host).toBe(false);
  });
});
