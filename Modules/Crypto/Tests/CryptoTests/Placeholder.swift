// Placeholder: replaced when the CryptoTests tests land.
