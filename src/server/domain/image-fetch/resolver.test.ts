import { describe, expect, it } from 'vitest';
import { staticResolver } from './resolver.ts';

describe('staticResolver', () => {
  const resolve = staticResolver({ 'Images.Example.com': ['93.184.216.34', '2606:4700::1111'] });

  it('answers every address of a known name, ignoring case and a trailing dot', async () => {
    await expect(resolve('images.example.com.')).resolves.toEqual(['93.184.216.34', '2606:4700::1111']);
  });

  it('fails an unknown name like NXDOMAIN', async () => {
    await expect(resolve('other.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });
});
