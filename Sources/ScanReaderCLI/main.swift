print("scanreader")
