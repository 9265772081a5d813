"""Press: messages between players, GM announcements, press rules, mail digests."""
