// Placeholder: replaced when the SiteTests tests land.
