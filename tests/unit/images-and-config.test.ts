import { describe, expect, it } from 'vitest';
import { detectImageType } from '../../src/domain/images.js';
import { loadConfig, workspaceLabelOf, workspaceOrigin } from '../../src/server/config.js';
import { tinyPng } from '../support/images.js';

describe('detectImageType', () => {
  it('knows PNG, JPEG, GIF and WebP by their bytes', () => {
    expect(detectImageType(tinyPng())).toBe('image/png');
    expect(detectImageType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(detectImageType(Buffer.from('GIF89a'))).toBe('image/gif');
    expect(detectImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
  });
  it('refuses SVG, text and empty data', () => {
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(detectImageType(Buffer.from('hello'))).toBeNull();
    expect(detectImageType(new Uint8Array())).toBeNull();
  });
});

describe('workspaceLabelOf', () => {
  it('takes the first label under the base domain', () => {
    expect(workspaceLabelOf('acme.localhost:8080', 'localhost')).toBe('acme');
    expect(workspaceLabelOf('ACME.beacon.example', 'beacon.example')).toBe('acme');
  });
  it('gives the root application for the bare base domain, other hosts and nested labels', () => {
    expect(workspaceLabelOf('localhost:8080', 'localhost')).toBeNull();
    expect(workspaceLabelOf('127.0.0.1:8080', 'localhost')).toBeNull();
    expect(workspaceLabelOf('a.b.localhost', 'localhost')).toBeNull();
    expect(workspaceLabelOf('evil-localhost', 'localhost')).toBeNull();
    expect(workspaceLabelOf(undefined, 'localhost')).toBeNull();
  });
});

describe('loadConfig', () => {
  it('has working defaults and builds workspace origins from the public URL', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBeUndefined();
    expect(workspaceOrigin(config, 'acme')).toBe('http://acme.localhost:8080');
    expect(workspaceOrigin(loadConfig({ BEACON_PUBLIC_URL: 'https://beacon.example' }), 'acme')).toBe(
      'https://acme.beacon.example',
    );
  });
  it('refuses a malformed number', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });
});
