from reljudge.cli.main import main

raise SystemExit(main())
