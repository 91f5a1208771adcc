print("bearer: coming soon")
