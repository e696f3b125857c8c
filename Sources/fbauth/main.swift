print("fbauth")
