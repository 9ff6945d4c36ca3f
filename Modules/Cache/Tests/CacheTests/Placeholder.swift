// Placeholder: replaced when the CacheTests tests land.
