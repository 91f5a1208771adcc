/// Migration of saved sessions.
public enum BearerMigration {}
