import { describe, expect, it } from 'vitest';
import { displayedAddress } from '@/lib/auth/sessions';

describe('a session’s address as the account page shows it', () => {
  it('shows an IPv6 client’s stored /64 network compressed, with its prefix', () => {
    expect(displayedAddress('2001:0db8:0001:0002:0000:0000:0000:0000')).toBe('2001:db8:1:2::/64');
  });

  it('leaves out the all-zero network a loopback client was stored as, and anything unparsable', () => {
    expect(displayedAddress('0000:0000:0000:0000:0000:0000:0000:0000')).toBeNull();
    expect(displayedAddress('not an address')).toBeNull();
    expect(displayedAddress('')).toBeNull();
    expect(displayedAddress(null)).toBeNull();
  });

  it('shows an IPv4 address as stored', () => {
    expect(displayedAddress('203.0.113.7')).toBe('203.0.113.7');
  });
});
