import type { SafeStorage } from 'electron';
import type { SecretCodec } from '../providers/index.ts';

/** What the codec uses of Electron's safeStorage (a seam: tests pass a fake). */
export type SafeStorageLike = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'> &
  Partial<Pick<SafeStorage, 'getSelectedStorageBackend'>>;

const NO_KEYCHAIN = 'No OS keychain is available to encrypt them; on Linux, install and unlock GNOME Keyring or KWallet, then restart Amber.';

/**
 * Seals API keys with the OS keychain (Keychain, DPAPI, libsecret, KWallet) through Electron's safeStorage.
 * Where the OS offers no encryption — including Linux's `basic_text` backend, which "encrypts" with a key
 * built into Chromium — keys are stored as what they are: unencrypted in the 0600 file, and the secret
 * store says so once.
 */
export function safeStorageCodec(safeStorage: SafeStorageLike, platform: NodeJS.Platform = process.platform): SecretCodec {
  const basicText = platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text';
  if (basicText || !safeStorage.isEncryptionAvailable()) {
    return {
      encrypted: false,
      unencryptedReason: NO_KEYCHAIN,
      encode: (value) => value,
      // Keys an earlier version sealed with basic_text are still read; they are written back plain.
      decode: (stored) => (basicText ? (unsealBasicText(safeStorage, stored) ?? stored) : stored),
    };
  }
  return {
    encrypted: true,
    encode: (value) => safeStorage.encryptString(value).toString('base64'),
    decode: (stored) => safeStorage.decryptString(Buffer.from(stored, 'base64')),
  };
}

/** A value Chromium sealed (base64 of a `v10`/`v11` blob), opened; null for a value stored plain. */
function unsealBasicText(safeStorage: SafeStorageLike, stored: string): string | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(stored)) return null;
  const bytes = Buffer.from(stored, 'base64');
  const prefix = bytes.subarray(0, 3).toString('latin1');
  if (prefix !== 'v10' && prefix !== 'v11') return null;
  try {
    return safeStorage.decryptString(bytes);
  } catch {
    return null;
  }
}
