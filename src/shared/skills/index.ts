export * from './skill-listing.ts';
