import type { SafeStorage } from 'electron';
import type { SecretCodec } from '../providers/index.ts';

/**
 * Seals API keys with the OS keychain (Keychain, DPAPI, libsecret) through Electron's safeStorage. Where
 * the OS offers no encryption, keys stay in the 0600 file unencrypted, and the secret store says so.
 */
export function safeStorageCodec(safeStorage: SafeStorage): SecretCodec {
  if (!safeStorage.isEncryptionAvailable()) return { encrypted: false, encode: (v) => v, decode: (v) => v };
  return {
    encrypted: true,
    encode: (value) => safeStorage.encryptString(value).toString('base64'),
    decode: (stored) => safeStorage.decryptString(Buffer.from(stored, 'base64')),
  };
}
